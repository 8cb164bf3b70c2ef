import unittest

from inventory.stock import low_stock, total_quantity


class StockTest(unittest.TestCase):
    def test_total_counts_every_item(self):
        self.assertEqual(total_quantity([("bolts", 10), ("nuts", 5), ("gears", 2)]), 17)

    def test_total_of_nothing_is_zero(self):
        self.assertEqual(total_quantity([]), 0)

    def test_low_stock_lists_items_under_the_threshold(self):
        self.assertEqual(low_stock([("bolts", 10), ("gears", 2)], 5), ["gears"])


if __name__ == "__main__":
    unittest.main()
