/** Names in a spec (hosts, benchmarks, labels): letters, digits, - and _. */
export const NAME_RE = /^[A-Za-z0-9_-]+$/;
/** Matrix variable names (`${name}`): letters, digits and _, not starting with a digit. */
export const VARIABLE_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
