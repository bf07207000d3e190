"""Device arrays (filled in by step 4)."""
def device_spmv(M, x, alpha, beta, y, algorithm, local_size):
    return NotImplemented
