/**
 * DNS-rebinding protection: a web page can make a browser send requests to 127.0.0.1 under its own
 * host name. Binding to loopback is not enough; the `Host` (and `Origin`, when a browser sends
 * one) must name this server on loopback.
 */

const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"];

export function isLoopbackHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const wanted = host.trim().toLowerCase();
  return LOOPBACK_HOSTS.some((name) => wanted === `${name}:${port}`);
}

/** An absent Origin is fine (CLIs send none); a present one must be this server on loopback. */
export function isLoopbackOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  const wanted = origin.trim().toLowerCase();
  return LOOPBACK_HOSTS.some((name) => wanted === `http://${name}:${port}`);
}
