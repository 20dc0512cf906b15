"""Running games for any front end: seating, records and recording, matches, simulations."""
