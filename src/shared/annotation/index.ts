/** Annotation sheets and barcodes: pure rules shared by the service, the CLI and the renderer. */
export * from './barcodes';
export * from './columns';
export * from './design';
export * from './names';
export * from './validate';
export * from './matcher';
