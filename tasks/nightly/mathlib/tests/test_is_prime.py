import unittest

from mathlib.is_prime import is_prime


class TestIsPrime(unittest.TestCase):
    def test_is_prime(self):
        self.assertFalse(is_prime(4))
        self.assertFalse(is_prime(1))
        self.assertTrue(is_prime(13))


if __name__ == "__main__":
    unittest.main()
