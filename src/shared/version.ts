/** The product version, kept in step with package.json by a unit test. */
export const APP_VERSION = '0.1.0';
