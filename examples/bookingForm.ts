/**
 * The demos' hotel booking form, as an agent paints it with A2UI v0.9's
 * basic catalog (the AG-UI dojo's hotel flow is the model): what it asks,
 * the data it starts from, and what "Book" sends back; and what the agent
 * says once it was pressed. The booking agent behind the real A2UI
 * middleware (frameworks/a2ui.ts) and the scripted demo agent both paint it.
 */
/** The booking form the agent paints: what it asks, and the action "Book" sends. */
export const BOOKING_FORM = {
  surfaceId: "booking",
  components: [
    { id: "root", component: "Card", child: "form" },
    { id: "form", component: "Column", children: ["title", "hotel", "name", "nights", "guests", "breakfast", "book"] },
    { id: "title", component: "Text", text: "Book a room", variant: "h3" },
    { id: "hotel", component: "ChoicePicker", label: "Hotel", variant: "mutuallyExclusive", options: [{ label: "Harbour View", value: "harbour" }, { label: "Old Town Inn", value: "old-town" }], value: { path: "/booking/hotel" } },
    {
      id: "name",
      component: "TextField",
      label: "Name on the booking",
      value: { path: "/booking/name" },
      checks: [{ condition: { call: "required", args: { value: { path: "/booking/name" } } }, message: "Enter the name for the booking" }],
    },
    { id: "nights", component: "Slider", label: "Nights", min: 1, max: 14, value: { path: "/booking/nights" } },
    { id: "guests", component: "TextField", label: "Guests", variant: "number", value: { path: "/booking/guests" } },
    { id: "breakfast", component: "CheckBox", label: "Breakfast included", value: { path: "/booking/breakfast" } },
    {
      id: "book",
      component: "Button",
      child: "book-label",
      variant: "primary",
      action: { event: { name: "book_room", context: { hotel: { path: "/booking/hotel" }, name: { path: "/booking/name" }, nights: { path: "/booking/nights" }, guests: { path: "/booking/guests" }, breakfast: { path: "/booking/breakfast" } } } },
      checks: [{ condition: { call: "required", args: { value: { path: "/booking/name" } } }, message: "Enter the name for the booking" }],
    },
    { id: "book-label", component: "Text", text: "Book" },
  ],
  data: { booking: { hotel: ["harbour"], name: "", nights: 2, guests: "2", breakfast: true } },
};

const HOTELS: Record<string, string> = { harbour: "Harbour View", "old-town": "Old Town Inn" };

/** What the agent says once "Book" was pressed, from the action's context. */
export function confirmation(context: Record<string, unknown>): string {
  const hotel = HOTELS[String([context.hotel].flat()[0])] ?? "the hotel";
  const name = typeof context.name === "string" && context.name.trim() !== "" ? context.name.trim() : "you";
  const nights = Number(context.nights) || 1;
  const guests = Number(context.guests) || 1;
  return `Booked ${hotel} for ${name}: ${nights} night${nights === 1 ? "" : "s"}, ${guests} guest${guests === 1 ? "" : "s"}${context.breakfast === true ? ", breakfast included" : ""}.`;
}

