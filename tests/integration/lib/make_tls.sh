# Sourced by the update tests that speak https: a throw-away certificate
# authority and a server certificate it signed, made with openssl in a
# directory of the test's own, so nothing on the host is trusted or changed.
#
#   make_tls DIR SAN   writes DIR/ca.pem (the authority, to give aptus as
#                      Acquire::https::CAInfo), DIR/server.pem and
#                      DIR/server.key (for the server); SAN is the server
#                      certificate's subjectAltName, e.g. "DNS:localhost"
make_tls() {
    local dir=$1 san=$2
    mkdir -p "$dir"
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=aptus test CA" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -keyout "$dir/ca.key" -out "$dir/ca.pem" 2>/dev/null || return 1
    openssl req -newkey rsa:2048 -nodes -subj "/CN=aptus test server" \
        -keyout "$dir/server.key" -out "$dir/server.csr" 2>/dev/null || return 1
    printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' "$san" >"$dir/server.ext"
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial \
        -days 2 -extfile "$dir/server.ext" -out "$dir/server.pem" 2>/dev/null || return 1
}
