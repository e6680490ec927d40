"""The names of the pages and views, shared by the widgets that switch between them."""

PAGES = ["One sentence", "A corpus", "Training"]
VIEWS = ["Step by step", "Bahdanau vs Luong", "Beam search", "Model cards", "Export"]
