"""Running games for any front end: records, matches, simulations."""
