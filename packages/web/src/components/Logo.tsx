/** The Talkgroup mark: a transmit lamp under two radio waves. Decorative: the product name is text next to it. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#0b6b6b" />
      <circle cx="32" cy="38" r="6" fill="#f2a541" />
      <path
        d="M20 26a17 17 0 0 1 24 0M13 19a27 27 0 0 1 38 0"
        fill="none"
        stroke="#bff0ea"
        strokeWidth="5"
        strokeLinecap="round"
      />
      <path d="M32 44v10" stroke="#f2a541" strokeWidth="5" strokeLinecap="round" />
    </svg>
  );
}
