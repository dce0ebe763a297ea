"""Russian: «1 000» with a no-break space, «0,25» with a comma (as Django's own ru formats)."""

DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\xa0"
NUMBER_GROUPING = 3
