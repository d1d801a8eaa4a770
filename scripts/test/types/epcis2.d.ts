/**
 * epcis2.js ships JavaScript without type declarations: the few parts the EPCIS client test uses, as that test uses
 * them (builders return their object, so calls chain).
 */
declare module 'epcis2.js' {
  // biome-ignore lint/suspicious/noExplicitAny: an untyped library's builders, chained as it documents them
  type Builder = any;
  const epcis: {
    ObjectEvent: new () => Builder;
    ReadPoint: new () => Builder;
    BizLocation: new () => Builder;
    SourceElement: new () => Builder;
    DestinationElement: new () => Builder;
    EPCISDocument: new () => Builder;
    cbv: {
      actionTypes: Record<string, string>;
      bizSteps: Record<string, string>;
      dispositions: Record<string, string>;
      sourceDestinationTypes: Record<string, string>;
    };
    validateEpcisDocument(document: unknown, throwError?: boolean): { success: boolean; errors: string[] };
    objectToEvent(event: unknown): Builder;
  };
  export default epcis;
}
