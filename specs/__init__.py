"""The rule specs shipped with the referee (YAML data; this file only makes them package data)."""
