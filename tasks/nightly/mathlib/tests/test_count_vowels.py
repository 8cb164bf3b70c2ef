import unittest

from mathlib.count_vowels import count_vowels


class TestCountVowels(unittest.TestCase):
    def test_count_vowels(self):
        self.assertEqual(count_vowels("Apple"), 2)
        self.assertEqual(count_vowels("xyz"), 0)


if __name__ == "__main__":
    unittest.main()
