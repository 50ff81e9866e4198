-- wrk: every request a JSON-RPC POST of the body in the BODY environment variable
-- (bench/side_by_side_rpc.sh).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = os.getenv("BODY")
