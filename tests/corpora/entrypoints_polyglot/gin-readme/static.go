// From gin 1.8.1's README.md (line 1253), Copyright (c) 2014 Manu Martinez-Almeida, MIT licence.
func main() {
	router := gin.Default()
	router.Static("/assets", "./assets")
	router.StaticFS("/more_static", http.Dir("my_file_system"))
	router.StaticFile("/favicon.ico", "./resources/favicon.ico")
	router.StaticFileFS("/more_favicon.ico", "more_favicon.ico", http.Dir("my_file_system"))
	
	// Listen and serve on 0.0.0.0:8080
	router.Run(":8080")
}
