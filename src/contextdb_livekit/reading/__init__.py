"""How a caller's sentences are read into typed statements, in English: days and whether they
work, corrections and changes, who is speaking of whom, addresses, flats, floors and how to
reach the caller. What a line's callers have at home comes from the line (`Equipment`).
"""
