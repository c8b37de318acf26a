"""Free: a hex board with no rules, for exact-scale diagrams of any hex game: stones of four
colours anywhere, and every annotation."""
