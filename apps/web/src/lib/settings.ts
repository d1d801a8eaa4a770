/** Settings the gateway writes into the page as meta tags (`rootline:<name>`); absent when not configured. */
export function pageSetting(name: string): string | undefined {
  const meta = document.querySelector<HTMLMetaElement>(`meta[name="rootline:${name}"]`);
  return meta?.content || undefined;
}
