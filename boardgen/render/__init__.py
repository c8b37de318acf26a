"""Game-neutral drawing: a picture of roles, cells or holes, pieces, marks, arrows and
labels, laid out in mm and written as SVG, PDF or PNG."""
