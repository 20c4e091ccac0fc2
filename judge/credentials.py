"""The cluster's credentials: a CA and one certificate signed by it, with its key, which
every party of a cluster (the scheduler, each worker, each judge given `--cluster`)
presents over TLS and asks of the others. A party without them can neither connect to the
scheduler nor be connected to.

`judge scheduler` makes them on first use in the folder `cluster` of the judge's cache (or
the folder of `--credentials` or ``$JUDGE_CLUSTER_CREDENTIALS``): a folder of mode 0700
whose files are 0600, the judge's user's alone, so that no bot's uid can read them. The
CA's own key is not kept: no other certificate can be signed by it. The other machines of
a cluster get a copy of the folder.
"""

from __future__ import annotations

import datetime
import os
import shutil
import socket
import stat
import tempfile
from pathlib import Path
from typing import Any

from judge import install_hint
from judge.games.base import InputError

#: the environment variable that names the credentials folder (as `--credentials` does)
ENV = "JUDGE_CLUSTER_CREDENTIALS"
#: the CA's certificate, the parties' certificate and its key
CA, CERT, KEY = "ca.pem", "cert.pem", "key.pem"
#: how long the certificates are valid
DAYS = 3650
#: the extra to install for a cluster
INSTALL = install_hint("cluster")


def folder(given: str | None = None) -> Path:
    """The credentials folder: `given` (a `--credentials`), else the environment's, else
    ``cluster`` in the judge's cache."""
    if given or os.environ.get(ENV):
        return Path(os.path.abspath(given or os.environ[ENV]))
    from judge.solvers.cache import cache_dir

    return cache_dir() / "cluster"


def security(given: str | None = None, make: bool = False) -> Any:
    """The Dask `Security` of the credentials in `folder(given)`: TLS required, the same
    certificate for every role, each party's checked against the CA (made first when
    `make` and there are none). `InputError` when they are missing or others may read
    them."""
    from distributed import Security

    path = files(given, make)
    cert, key = str(path / CERT), str(path / KEY)
    return Security(require_encryption=True, tls_ca_file=str(path / CA),
                    tls_client_cert=cert, tls_client_key=key,
                    tls_scheduler_cert=cert, tls_scheduler_key=key,
                    tls_worker_cert=cert, tls_worker_key=key)


def files(given: str | None = None, make: bool = False) -> Path:
    """`folder(given)`, checked to hold the three files, the judge's user's alone (made
    first when `make` and the folder is missing or empty); else `InputError`."""
    path = folder(given)
    if make and (not path.exists() or (path.is_dir() and not any(path.iterdir()))):
        _make(path)
    if not path.is_dir():
        raise InputError(f"no cluster credentials in {path}: `judge scheduler` makes them "
                         f"on its machine; copy that folder here (and give it with "
                         f"--credentials DIR or {ENV}=DIR)")
    for name in ("", CA, CERT, KEY):
        where = path / name
        try:
            st = os.stat(where)
        except OSError as exc:
            raise InputError(f"cluster credentials {path}: cannot read {name}: "
                             f"{exc.strerror}") from None
        if st.st_uid != os.geteuid() or st.st_mode & 0o077:
            raise InputError(f"cluster credentials {where}: must be this user's alone (uid "
                             f"{os.geteuid()}), or a bot's user could read them: chown them, "
                             f"then chmod 700 {path} and chmod 600 {path}/*")
        if bool(name) != stat.S_ISREG(st.st_mode):
            raise InputError(f"cluster credentials {where}: not a "
                             f"{'file' if name else 'folder'}")
    return path


def _make(path: Path) -> None:
    """Write a new CA's certificate, and a certificate it signed with its key, into `path`
    (0700, files 0600), whole or not at all; the CA's key is dropped."""
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
    except ImportError:
        raise InputError(f"making cluster credentials needs the cryptography package: "
                         f"{INSTALL}") from None
    now = datetime.datetime.now(datetime.UTC)
    ca_name = f"judge cluster CA of {socket.gethostname()}"
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())

    def name(text: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])

    def certificate(subject: str, public: Any, ca: bool) -> x509.Certificate:
        usage = dict.fromkeys(("digital_signature", "content_commitment", "key_encipherment",
                               "data_encipherment", "key_agreement", "key_cert_sign",
                               "crl_sign", "encipher_only", "decipher_only"), False)
        usage.update({"key_cert_sign": True, "crl_sign": True} if ca
                     else {"digital_signature": True})
        builder = (x509.CertificateBuilder().subject_name(name(subject))
                   .issuer_name(name(ca_name))
                   .public_key(public).serial_number(x509.random_serial_number())
                   # a day early: the other machines' clocks may be behind
                   .not_valid_before(now - datetime.timedelta(days=1))
                   .not_valid_after(now + datetime.timedelta(days=DAYS))
                   .add_extension(x509.BasicConstraints(ca=ca, path_length=0 if ca else None),
                                  critical=True)
                   .add_extension(x509.KeyUsage(**usage), critical=True)
                   .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), False)
                   .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                       ca_key.public_key()), False))
        if not ca:
            builder = (builder
                       .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH,
                                                             ExtendedKeyUsageOID.CLIENT_AUTH]),
                                      False)
                       .add_extension(x509.SubjectAlternativeName([x509.DNSName("judge")]),
                                      False))
        return builder.sign(ca_key, hashes.SHA256())

    pem = serialization.Encoding.PEM
    content = {
        CA: certificate(ca_name, ca_key.public_key(), True).public_bytes(pem),
        CERT: certificate("judge cluster", key.public_key(), False).public_bytes(pem),
        KEY: key.private_bytes(pem, serialization.PrivateFormat.PKCS8,
                               serialization.NoEncryption()),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}-", dir=path.parent))  # mode 0700
    try:
        for file, data in content.items():
            fd = os.open(tmp / file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
        try:
            os.rename(tmp, path)  # over an empty folder, not over another's credentials
        except OSError:
            if not (path / KEY).exists():  # none made by another judge meanwhile
                raise
    except OSError as exc:
        raise InputError(f"cannot make cluster credentials in {path}: "
                         f"{exc.strerror or exc}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
