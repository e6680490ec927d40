"""Tests of the checks in scripts/."""
