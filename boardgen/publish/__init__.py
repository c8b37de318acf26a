"""Publishing: what boardgen makes out of boards, diagrams and sheets for people to print
and read (print-and-play kits, the printer check page)."""
