/** Random UUIDs (v4 layout) from an injectable random source, so seeded tests get stable IDs. */
export function uuidFrom(random: () => number): string {
  const hex = (n: number): string => {
    let out = '';
    for (let i = 0; i < n; i++) out += Math.floor(random() * 16).toString(16);
    return out;
  };
  const variant = (8 + Math.floor(random() * 4)).toString(16);
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
}
