// From the Spring Framework 4.3.30 reference, src/asciidoc/web-mvc.adoc (line 676),
// Apache License 2.0.
	@Controller
	@RequestMapping("/appointments")
	public class AppointmentsController {

		private final AppointmentBook appointmentBook;

		@Autowired
		public AppointmentsController(AppointmentBook appointmentBook) {
			this.appointmentBook = appointmentBook;
		}

		@GetMapping
		public Map<String, Appointment> get() {
			return appointmentBook.getAppointmentsForToday();
		}

		@GetMapping("/{day}")
		public Map<String, Appointment> getForDay(@PathVariable @DateTimeFormat(iso=ISO.DATE) Date day, Model model) {
			return appointmentBook.getAppointmentsForDay(day);
		}

		@GetMapping("/new")
		public AppointmentForm getNewForm() {
			return new AppointmentForm();
		}

		@PostMapping
		public String add(@Valid AppointmentForm appointment, BindingResult result) {
			if (result.hasErrors()) {
				return "appointments/new";
			}
			appointmentBook.addAppointment(appointment);
			return "redirect:/appointments";
		}
	}
