"""``python -m spoiler``: the same as the ``spoiler`` command."""

from spoiler.launch import main

if __name__ == "__main__":
    main()
