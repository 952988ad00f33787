/** Reading untrusted tables: delimited text, workbooks, their bounds and header rows. */
export * from './table-limits';
export * from './text-decode';
export * from './delimited';
export * from './zip-archive';
export * from './xml-scan';
export * from './xlsx-workbook';
export * from './annotation-table';
