# Sourced (`. scripts/_ca_env.sh`) by the scripts that fetch from a registry: scripts/setup.sh and
# scripts/wine.sh. A machine whose extra CA (a TLS proxy's, a company's) is only in SSL_CERT_FILE: neither
# Node (npm) nor Deno reads that variable, so the same file is handed to each in the variable it does read.
# A value the caller already set wins.
if [ -n "${SSL_CERT_FILE:-}" ] && [ -r "$SSL_CERT_FILE" ]; then
  export NODE_EXTRA_CA_CERTS="${NODE_EXTRA_CA_CERTS:-$SSL_CERT_FILE}"
  export DENO_CERT="${DENO_CERT:-$SSL_CERT_FILE}"
fi
