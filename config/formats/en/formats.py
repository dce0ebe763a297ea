"""English: points and counts stay ungrouped (1000), decimals with a point."""

DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 0
