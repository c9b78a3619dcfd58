/** postject 1.0.0-alpha.6 ships no declarations: the one function scripts/sea-executable.ts calls. */
declare module 'postject' {
  /** Puts `resourceData` into the executable `filename` as the resource `resourceName`, in place. */
  export function inject(
    filename: string,
    resourceName: string,
    resourceData: Buffer,
    options?: { sentinelFuse?: string; machoSegmentName?: string; overwrite?: boolean },
  ): Promise<void>;
}
