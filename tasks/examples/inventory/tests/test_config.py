import unittest

from inventory.config import parse_config


class ParseConfigTest(unittest.TestCase):
    def test_reads_keys_and_values(self):
        self.assertEqual(parse_config("title = Depot\nlow_stock_threshold=3\n"),
                         {"title": "Depot", "low_stock_threshold": "3"})

    def test_skips_comments_and_blank_lines(self):
        self.assertEqual(parse_config("# settings\n\nsize = 2  # units\n"), {"size": "2"})

    def test_rejects_a_line_without_equals(self):
        with self.assertRaises(ValueError):
            parse_config("nonsense\n")


if __name__ == "__main__":
    unittest.main()
