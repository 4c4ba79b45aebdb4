// Entry of dist/a2ui-v0_8.js: everything the page needs to render A2UI v0.8. It cannot share a
// page with the v0.9 bundle: both register <a2ui-surface>, <a2ui-card> and others.
import { Data } from '@a2ui/lit/v0_8';
// Importing the UI registers the v0.8 elements; Context holds the theme and markdown contexts.
export { Context } from '@a2ui/lit/ui';
export { ContextProvider } from '@lit/context';
export { HttpAgent } from '@ag-ui/client';
export const version = 'v0.8';
/** A v0.8 message processor whose model is made of signals, so the elements re-render by themselves. */
export const createProcessor = () => Data.createSignalA2uiMessageProcessor();
