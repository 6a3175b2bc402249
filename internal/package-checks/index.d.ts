/** A package that is published, as found under packages/. */
export interface PublishedPackage {
  /** Its folder in the repository. */
  dir: string;
  name: string;
  version: string;
}
/** A published package and its tarball. */
export interface PackedPackage extends PublishedPackage {
  /** Absolute path of the `.tgz` that `pnpm pack` wrote. */
  tarball: string;
}
export declare const REPO_ROOT: string;
export declare function publishedPackages(): PublishedPackage[];
export declare function packPackages(destination: string): Promise<PackedPackage[]>;
export declare function unpackTarball(tarball: string): Promise<string>;
export declare function checkPackageFolder(
  folder: string,
  options?: { licenseText?: string },
): string[];
export declare function packAndCheck(): Promise<Array<PackedPackage & { problems: string[] }>>;
