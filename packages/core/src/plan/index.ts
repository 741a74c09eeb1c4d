export { createPlan } from './create-plan.js';
