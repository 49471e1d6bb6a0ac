"""The rule catalogue: one module per rule, each holding its matcher, page and examples."""
