import unittest

from mathlib.title_case import title_case


class TestTitleCase(unittest.TestCase):
    def test_title_case(self):
        self.assertEqual(title_case("the old man"), "The Old Man")


if __name__ == "__main__":
    unittest.main()
