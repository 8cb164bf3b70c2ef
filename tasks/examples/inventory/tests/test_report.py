import unittest

from inventory.report import render


class RenderTest(unittest.TestCase):
    def test_title_comes_from_the_settings(self):
        self.assertTrue(render("title = Depot\n", []).startswith("Depot: "))

    def test_low_items_are_listed(self):
        self.assertIn("low: gears", render("low_stock_threshold = 5\n", [("gears", 2)]))


if __name__ == "__main__":
    unittest.main()
