export type { Scalar } from '../samples/types.js';
