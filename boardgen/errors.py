"""The one exception type that means "the user asked for something we refuse"."""


class BoardgenError(Exception):
    """Bad input: the command line prints the message on one line and exits with code 2.

    The message must say what was wrong and where (an option, a file and line, a move
    number), so that it is useful without a traceback.
    """
