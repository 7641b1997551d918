/** auth-header 1.0 ships no types: the function the SIP digest uses. */
declare module 'auth-header' {
  export interface Authorization {
    scheme: string;
    params: Record<string, string | string[]>;
    token: string | null;
  }
  export function parse(header: string): Authorization;
}
