"""Serving a club night from one laptop (`make run`): which addresses the phones use, the server's environment,
its command, and the address to open with a QR code in the terminal.

Nothing here sends a packet: the addresses come from the interfaces (`ip -j addr`) or, without `ip`, from the
route a UDP socket would take (`connect` on UDP only picks a source address).

    python -m config.lan env      # shell `export` lines: bind address, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS, URL
    python -m config.lan serve    # exec gunicorn with config/gunicorn_conf.py (after `env`)
    python -m config.lan banner   # wait until the server answers on loopback, then print the address and a QR code

ARMLIST_LOCAL_ONLY=1 keeps everything on 127.0.0.1. PORT (default 8000) is the port.
Imports nothing from Django, so scripts and tests use it before settings exist.
"""

from __future__ import annotations

import ipaddress
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUNICORN_CONF = ROOT / "config" / "gunicorn_conf.py"
LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"]
# Interfaces of containers and virtual machines on the laptop: no phone reaches them.
VIRTUAL_PREFIXES = ("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "lxc", "lxd", "cni", "flannel", "podman")
_TRUE = {"1", "true", "yes", "on"}


def local_only(environ=None) -> bool:
    environ = os.environ if environ is None else environ
    return environ.get("ARMLIST_LOCAL_ONLY", "").strip().lower() in _TRUE


def _usable(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return not (ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified)


def _from_ip_command() -> list[str] | None:
    """Global addresses of the interfaces that are up, IPv4 first, from `ip -j addr` (reads the kernel's table)."""
    ip_bin = shutil.which("ip") or next((p for p in ("/usr/sbin/ip", "/sbin/ip") if Path(p).exists()), None)
    if not ip_bin:
        return None
    try:
        out = subprocess.run([ip_bin, "-j", "addr"], capture_output=True, text=True, timeout=5, check=True).stdout
        interfaces = json.loads(out)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    v4, v6 = [], []
    for iface in interfaces:
        name = iface.get("ifname", "")
        if (
            "UP" not in iface.get("flags", [])
            or "LOOPBACK" in iface.get("flags", [])
            or name.startswith(VIRTUAL_PREFIXES)
        ):
            continue
        for info in iface.get("addr_info", []):
            if info.get("scope") != "global" or info.get("deprecated") or info.get("tentative"):
                continue
            try:
                ip = ipaddress.ip_address(info.get("local", ""))
            except ValueError:
                continue
            if _usable(ip):
                (v4 if ip.version == 4 else v6).append(str(ip))
    return v4 + v6


def _from_route() -> list[str]:
    """The source address of the default route: a UDP `connect` picks it without sending anything."""
    found = []
    for family, target in ((socket.AF_INET, "198.51.100.1"), (socket.AF_INET6, "2001:db8::1")):  # documentation nets
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect((target, 9))
                ip = ipaddress.ip_address(s.getsockname()[0])
        except (OSError, ValueError):
            continue
        if _usable(ip):
            found.append(str(ip))
    return found


def lan_addresses() -> list[str]:
    """The laptop's addresses that phones on the same network can use, IPv4 first; [] when it has none."""
    found = _from_ip_command()
    if found is None:
        found = _from_route()
    return list(dict.fromkeys(found))


def host_names() -> list[str]:
    """The laptop's name as phones may type it: the bare name and its mDNS form (`name.local`)."""
    name = socket.gethostname().strip().lower()
    if not name or name == "localhost":
        return []
    short = name.split(".")[0]
    return list(dict.fromkeys([name, short, f"{short}.local"]))


def url_host(address: str) -> str:
    """An address as it stands in a URL or a Host header (IPv6 in brackets)."""
    return f"[{address}]" if ":" in address else address


def ipv6_available() -> bool:
    if not socket.has_ipv6:
        return False
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
            s.bind(("::1", 0))
    except OSError:
        return False
    return True


def bind_addresses(port: int, *, local: bool) -> list[str]:
    """Where gunicorn listens. On the LAN: `[::]` (which also takes IPv4 where the kernel allows dual-stack sockets,
    the Linux default), plus `0.0.0.0` when IPv6 sockets are IPv6-only; `0.0.0.0` alone without IPv6."""
    if local:
        return [f"127.0.0.1:{port}"]
    if not ipv6_available():
        return [f"0.0.0.0:{port}"]  # noqa: S104 - serving the LAN is the point
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:  # a new socket holds the system's default
        v6only = s.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY) == 1
    return [f"0.0.0.0:{port}", f"[::]:{port}"] if v6only else [f"[::]:{port}"]  # noqa: S104


def server_env(port: int | None = None, environ=None) -> dict[str, str]:
    """The variables the server needs for this machine: ARMLIST_BIND, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS,
    ARMLIST_URL (the address to open) and ARMLIST_URLS (every LAN address). Hosts already in ALLOWED_HOSTS are kept."""
    environ = dict(os.environ if environ is None else environ)
    port = int(port if port is not None else environ.get("PORT") or 8000)
    local = local_only(environ)
    addresses = [] if local else lan_addresses()
    names = [] if local else host_names()
    hosts = [h.strip() for h in environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
    hosts = list(dict.fromkeys([*hosts, *LOOPBACK_HOSTS, *(url_host(a) for a in addresses), *names]))
    urls = [f"http://{url_host(a)}:{port}/" for a in addresses]
    origins = [o.strip() for o in environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]
    origins = list(dict.fromkeys([*origins, *(u.rstrip("/") for u in urls), *(f"http://{n}:{port}" for n in names)]))
    return {
        "PORT": str(port),
        "ARMLIST_BIND": " ".join(bind_addresses(port, local=local)),
        "ALLOWED_HOSTS": ",".join(hosts),
        "CSRF_TRUSTED_ORIGINS": ",".join(origins),
        "ARMLIST_URL": urls[0] if urls else f"http://127.0.0.1:{port}/",
        "ARMLIST_URLS": " ".join(urls),
    }


def server_command(python: str | None = None) -> list[str]:
    """The command that serves the app: gunicorn with config/gunicorn_conf.py (uvicorn's workers serving config/asgi.py;
    bind from ARMLIST_BIND)."""
    python = python or sys.executable
    return [python, "-m", "gunicorn", "--config", str(GUNICORN_CONF), "config.asgi:application"]


def wait_until_serving(port: int, timeout: float = 60.0) -> bool:
    """True once something accepts connections on 127.0.0.1:port (loopback only)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.2)
    return False


def stop_server(proc: subprocess.Popen, timeout: float = 20.0) -> None:
    """Stops a server started with server_command in a session of its own (start_new_session): SIGTERM to its whole
    process group (gunicorn's master and workers), as Ctrl-C on `make run` does, then SIGKILL if it outlives timeout."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def banner(environ=None) -> str:
    """What `make run` prints once the server answers: the address to open, a QR code of it, the other addresses."""
    environ = os.environ if environ is None else environ
    url = environ.get("ARMLIST_URL") or f"http://127.0.0.1:{environ.get('PORT', '8000')}/"
    others = [u for u in environ.get("ARMLIST_URLS", "").split() if u != url]
    lines = []
    if local_only(environ):
        lines += [f"Armlist is at {url} (this laptop only: ARMLIST_LOCAL_ONLY is set)."]
    elif not environ.get("ARMLIST_URLS"):
        lines += [f"Armlist is at {url}. No network address found: join a Wi-Fi and restart to serve phones."]
    else:
        lines += [f"Armlist is at {url}", "Phones on the same Wi-Fi: open that address or scan the code.", ""]
        lines += [_terminal_qr(url)]
        if others:
            lines += ["Also reachable at: " + " ".join(others)]
    return "\n".join(lines)


def _terminal_qr(url: str) -> str:
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue().rstrip("\n")


def main(argv: list[str]) -> int:
    what = argv[0] if argv else ""
    if what == "env":
        for name, value in server_env().items():
            print(f"export {name}={shlex.quote(value)}")
        return 0
    if what == "serve":
        command = server_command()
        os.execv(command[0], command)  # noqa: S606 - replaces this process, as a shell `exec` would
    if what == "banner":
        port = int(os.environ.get("PORT") or 8000)
        if not wait_until_serving(port):
            print(f"The server did not answer on port {port} within 60 s.", file=sys.stderr)
            return 1
        print(banner(), flush=True)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
