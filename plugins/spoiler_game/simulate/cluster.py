"""Playing a simulation's batches on a Dask distributed cluster (``simulate --cluster``).

Each batch runs ``spoiler.session.simulate.play_checked`` on its worker: the worker's whole
plugin set is checked against this machine's before a game is played, for every batch, so a
worker that joins late, or with a rules-only plugin, is refused and the batch played again on
the other workers. A worker that dies takes its batch with it; the scheduler gives the batch
to another worker.
"""

from __future__ import annotations

import re
import time

from spoiler.session import simulate as sim


class AddressError(ValueError):
    """A ``--cluster`` address simulate cannot connect to (one line, for the user)."""


#: ``tcp://HOST:PORT`` (or ``HOST:PORT``), HOST a name, an IPv4 address or ``[IPv6]``.
_ADDRESS = re.compile(
    r"(?:(?P<scheme>[a-z][a-z0-9+.-]*)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[\w.-]+):(?P<port>\d{1,5})"
)


def check_address(address: str) -> str:
    """The scheduler address as Dask takes it (``tcp://HOST:PORT``); AddressError, naming
    what is wrong, for any other: another protocol (``tls://`` needs certificates simulate
    has no options for, ``ucx://`` a library), no port, or not an address at all."""
    scheme, sep, _ = address.partition("://")
    if sep and scheme.lower() != "tcp":
        raise AddressError(
            f"--cluster {address}: {scheme}:// is not supported; give the scheduler's "
            "tcp://HOST:PORT address"
        )
    match = _ADDRESS.fullmatch(address)
    if match is None or not 0 < int(match["port"]) < 65536:
        raise AddressError(
            f"--cluster {address!r} is not a scheduler address; give tcp://HOST:PORT "
            "(e.g. tcp://10.0.0.5:8786)"
        )
    return f"tcp://{match['host']}:{int(match['port'])}"


def batch(plan: sim.Plan, numbers: range, expected: dict, tally: bool = False):
    """One batch, on the worker that runs it (see ``sim.play_checked``): its summaries, or
    with ``tally`` its ``sim.Tally``."""
    try:
        from distributed import get_worker

        worker = get_worker().address
    except (ImportError, ValueError):  # not in a worker (never in a real cluster)
        worker = "?"
    return sim.play_checked(plan, numbers, expected, worker, tally)


class DaskCluster:
    """``sim.Cluster`` on a ``distributed.Client``: batches checked against ``expected``
    (this machine's ``sim.installed()``)."""

    def __init__(self, client, expected: dict):
        self.client, self.expected = client, expected
        self._allowed: dict[str, set[str]] = {}

    def submit(self, plan: sim.Plan, numbers: range, avoid: set[str], tally: bool = False):
        options: dict = {}
        if avoid:  # workers that refused a batch get no more
            allowed = self.workers() - avoid
            options = {"workers": sorted(allowed), "allow_other_workers": False}
        future = self.client.submit(
            batch, plan, numbers, self.expected, tally, pure=False, **options
        )
        if avoid:
            self._allowed[future.key] = allowed
        return future

    def workers(self) -> set[str]:
        return set(self.client.nthreads())

    def threads(self) -> int:
        return sum(self.client.nthreads().values())

    def allowed(self, future) -> set[str] | None:
        return self._allowed.get(future.key)

    def wait(self, futures: list, timeout: float) -> set:
        from distributed import wait

        if not futures:
            time.sleep(timeout)
            return set()
        try:
            return set(wait(futures, timeout=timeout, return_when="FIRST_COMPLETED").done)
        except TimeoutError:
            return set()

    def cancel(self, futures: list) -> None:
        if futures:
            self.client.cancel(futures)
        for future in futures:
            self._allowed.pop(future.key, None)
