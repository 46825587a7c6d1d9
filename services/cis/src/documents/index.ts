// Document builders of the CIS service: the statement PDF, the CIS300 return XML (and its GovTalk envelope
// with the IRmark) and the CSV exports and import. Pure modules: no database, no network.

export * from './format.js';
export * from './statement-pdf.js';
export * from './cis300-xml.js';
export * from './csv-export.js';
export * from './csv-import.js';
