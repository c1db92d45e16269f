// Types of callgrind-costs.mjs, for the engine's TypeScript.
export declare const V8_HEAP_FUNCTION: RegExp;
export declare function dumpTotal(text: string): number | null;
export declare function v8HeapCost(text: string): number;
export declare function sumCosts(text: string, pick: (fn: string, callee: string | null) => boolean): number;
export declare const V8_LOGGER_FUNCTION: RegExp;
export declare function v8Count(text: string): number | null;
export declare function v8LoggerCost(text: string): number;
export declare function inclusiveCost(text: string, isIn: (fn: string) => boolean): number;
