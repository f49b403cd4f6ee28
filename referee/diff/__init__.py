"""``referee diff``: what one rulebook changes from another (the declared differences, item by item) and, for each
difference in behaviour, a game that one spec accepts and the other rejects."""
