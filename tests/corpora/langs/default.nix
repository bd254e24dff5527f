{ lib, stdenv, fetchurl, pkg-config, openssl, zlib }:

# A small HTTP server, built from its release tarball.
stdenv.mkDerivation rec {
  pname = "tinyhttpd";
  version = "2.4.1";

  src = fetchurl {
    url = "https://example.org/releases/${pname}-${version}.tar.gz";
    sha256 = "0000000000000000000000000000000000000000000000000000";
  };

  nativeBuildInputs = [ pkg-config ];
  buildInputs = [ openssl zlib ];

  # The tests need network access.
  doCheck = false;

  configureFlags = [
    "--with-openssl=${openssl.dev}"
    "--disable-static"
  ];

  postInstall = ''
    mkdir -p $out/share/doc
    cp README.md $out/share/doc/
  '';

  meta = with lib; {
    description = "A small HTTP server";
    license = licenses.mit;
    platforms = platforms.unix;
  };
}
