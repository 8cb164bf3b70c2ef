def median(xs):
    middle = len(xs) // 2
    if len(xs) % 2:
        return xs[middle]
    return (xs[middle - 1] + xs[middle]) / 2
