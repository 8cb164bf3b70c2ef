import unittest

from mathlib.flatten import flatten


class TestFlatten(unittest.TestCase):
    def test_flatten(self):
        self.assertEqual(flatten([[1], [2, [3]]]), [1, 2, [3]])
        self.assertEqual(flatten([[1, 2], [3]]), [1, 2, 3])


if __name__ == "__main__":
    unittest.main()
