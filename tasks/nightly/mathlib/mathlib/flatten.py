def flatten(nested):
    return [item for group in nested[:-1] for item in group]
