from minihttp import Client, RetryPolicy


def test_retry_delay_grows():
    policy = RetryPolicy(max_retries=2, backoff_factor=1.0)
    assert policy.delay(2) == 4.0


def test_client_strips_slash():
    assert Client("http://x/").base_url == "http://x"
