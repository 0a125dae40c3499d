GPU = "cuda -arch=sm_80 -max_threads_per_block=512"
