def is_prime(n):
    for k in range(2, n // 2):
        if n % k == 0:
            return False
    return True
