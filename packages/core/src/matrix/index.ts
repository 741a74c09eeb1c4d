export { expandMatrix } from './expand-matrix.js';
