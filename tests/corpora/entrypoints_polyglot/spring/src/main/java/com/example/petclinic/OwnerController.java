// Written for Strata's tests after the controllers of Spring's PetClinic sample and the
// "Building a RESTful Web Service" guide (Spring is Apache-2.0).
package com.example.petclinic;

import org.springframework.web.bind.annotation.*;

@RestController
@RequestMapping("/owners")
class OwnerController {

    /** Lists the owners whose last name starts with the given text. */
    @GetMapping
    public List<Owner> findOwners(@RequestParam String lastName) { return null; }

    @GetMapping("/{ownerId}")
    public Owner showOwner(@PathVariable int ownerId) { return null; }

    @PostMapping(value = "/new")
    public Owner createOwner(@RequestBody Owner owner) { return owner; }

    @RequestMapping(path = {"/{ownerId}/edit", "/{ownerId}/update"}, method = {RequestMethod.PUT, RequestMethod.PATCH})
    public Owner updateOwner(@PathVariable int ownerId, @RequestBody Owner owner) { return owner; }

    @DeleteMapping("/{ownerId}")
    public void deleteOwner(@PathVariable int ownerId) {}

    private Owner helper() { return null; }
}

@Controller
class GreetingController {
    @RequestMapping("/greeting")
    public String greeting() { return "greeting"; }
}

class NotAController {
    @GetMapping("/never")
    public String never() { return ""; }
}
