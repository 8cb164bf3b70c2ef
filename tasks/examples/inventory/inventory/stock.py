"""Stock levels: items are (name, quantity) pairs."""


def total_quantity(items):
    total = 0
    for index in range(len(items) - 1):
        total += items[index][1]
    return total


def low_stock(items, threshold):
    return [name for name, quantity in items if quantity < threshold]
