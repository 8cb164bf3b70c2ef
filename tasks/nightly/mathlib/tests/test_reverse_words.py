import unittest

from mathlib.reverse_words import reverse_words


class TestReverseWords(unittest.TestCase):
    def test_reverse_words(self):
        self.assertEqual(reverse_words("one two three"), "three two one")


if __name__ == "__main__":
    unittest.main()
